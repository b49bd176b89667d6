BAD // want "bad word"
ok
