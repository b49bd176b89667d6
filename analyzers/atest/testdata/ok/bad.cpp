// Fixture of the atest self-test: the fake analyzer reports every B-A-D.
int BAD; // want "bad word"
int BAD, BAD; // want 5:"bad" 10:`bad w.rd`
int y = BAD; // want "bad word" 
