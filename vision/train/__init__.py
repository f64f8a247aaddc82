"""The lab: training and exporting the networks the reader runs (torch and ultralytics only here)."""
