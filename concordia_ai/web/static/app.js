// the board
