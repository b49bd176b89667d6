a BAD b // want "bad word"
BAD? // want "bad word"
