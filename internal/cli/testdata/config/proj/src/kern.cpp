// config fixture: its configuration is what matters
void f() {}
