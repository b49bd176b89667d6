// Driver fixture: no VF marker, so this broken code is never parsed.
int f( { return 0 }
