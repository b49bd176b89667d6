int a = BAD; // want "bad word"
// untouched line
x BAD y BAD // want 3:"bad word" 9:"bad word"
BAD? // want "bad word"
