x BAD BAD yy // want "bad word" "bad word"
