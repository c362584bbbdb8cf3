"""modelruns: CNNs take the same test as people (docs/models.md).

    flask stimuli export study3 --training 3000 --regime IID --seed 0 --out data/iid   # the training set
    python -m modelruns train --data data/iid --arch small --epochs 8 --seed 0 --out runs/small-iid-0
    flask stimuli export study3 --out data/test                                         # the test people took
    python -m modelruns predict runs/small-iid-0 --stimuli data/test --out preds.parquet
    flask import-predictions study3 preds.parquet --observer small --unit ratio
    flask analyze study3
    python -m modelruns sweep sweep.toml        # a grid of seeds × regimes × sizes × architectures, resumable
    python -m modelruns sweep sweep.toml --executor slurm   # the same grid as a Slurm job array (modelruns/cluster.py)

Like `analysis/`, this package never imports Flask or the server: it reads the files `flask stimuli export` writes
and writes the file `flask import-predictions` reads. It is the only part of studyhive that needs PyTorch
and submitit (requirements-models.txt); the server never imports it.
"""
