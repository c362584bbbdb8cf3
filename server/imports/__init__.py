"""Model answers imported for a study's stimuli: numeric predictions (predictions.py) and ranked labels
(label_predictions.py)."""
