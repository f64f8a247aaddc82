"""The camera side of the table: frame sources (files, USB, the Pi camera) and the loop that reads still tables."""
