"""The numpy baseline for BENCHMARKS.md: one Dudo bid (15 cuadras, 30 dice) by vectorised
Monte Carlo, the way a Python user would write it. Needs numpy (`pip install numpy`).

Usage: python3 benches/numpy_dice.py [samples]
"""
import sys
import time

import numpy as np

samples = int(float(sys.argv[1])) if len(sys.argv) > 1 else 4_000_000
batch = 200_000
rng = np.random.default_rng(1)
hits = 0
start = time.perf_counter()
done = 0
while done < samples:
    n = min(batch, samples - done)
    dice = rng.integers(1, 7, size=(n, 30), dtype=np.int8)
    count = ((dice == 4) | (dice == 1)).sum(axis=1)
    hits += int((count >= 15).sum())
    done += n
elapsed = time.perf_counter() - start
print(f"numpy {np.__version__}: {samples} samples x 30 dice in {elapsed:.3f} s = "
      f"{samples * 30 / elapsed:.3e} dice/s; P(15 cuadras) ~ {hits / samples:.5f} (exact 0.04348)")
