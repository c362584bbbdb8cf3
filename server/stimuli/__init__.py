"""A study's stimulus sets in and out: importing them from a manifest and a folder of images (manifests.py), and
writing them as files for models, the test set or a training set (for_models.py)."""
