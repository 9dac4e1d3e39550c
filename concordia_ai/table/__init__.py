"""A real game at the table: the game file on disk, its history by turn, review, a board as reference,
position templates and text rendering. Imports ai, engine and io."""
