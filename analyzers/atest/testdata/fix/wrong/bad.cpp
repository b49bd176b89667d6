BAD // want "bad word"
