"""The table service: the game, its storage, corrections, the live event bus and the camera's table labels."""
