"""Files: every write is atomic (or a safe append to a log), every read of a file a user named is bounded
and refuses what is not a regular file. Used by every layer above the engine that touches files."""
