#!/usr/bin/env python3
"""A small training run for trying trainyard: synthetic data, no downloads.

With PyTorch and a GPU it trains a small MLP on the GPU; with PyTorch alone, on the CPU; without
PyTorch it runs a plain-Python logistic regression. It prints progress in the formats trainyard
parses (a tqdm-style bar, Keras-style epoch lines, `key=value` and Hugging Face dicts) and
finishes in well under a minute by default.
"""
import argparse
import math
import random
import sys
import time


def bar(epoch, epochs, step, steps, start, loss, acc):
    """Writes a tqdm-style progress bar rewritten in place with \\r."""
    frac = step / steps
    filled = int(frac * 20)
    elapsed = time.time() - start
    rate = step / elapsed if elapsed > 0 else 0.0
    line = (f"Epoch {epoch}/{epochs}: {int(frac * 100):3d}%|{'█' * filled}{' ' * (20 - filled)}| "
            f"{step}/{steps} [{elapsed:05.2f}s, {rate:.1f}it/s, loss={loss:.4f}, acc={acc:.3f}]")
    # Padded as tqdm does, so a shorter record fully covers the one before it.
    sys.stdout.write("\r" + line.ljust(96))
    sys.stdout.flush()


def make_data(n, dim, rng):
    w = [rng.gauss(0, 1) for _ in range(dim)]
    xs, ys = [], []
    for _ in range(n):
        x = [rng.gauss(0, 1) for _ in range(dim)]
        z = sum(a * b for a, b in zip(w, x)) + rng.gauss(0, 0.5)
        xs.append(x)
        ys.append(1.0 if z > 0 else 0.0)
    return xs, ys


def train_plain(args, rng):
    print("backend: plain Python (PyTorch not found)")
    xs, ys = make_data(args.samples, args.dim, rng)
    split = int(len(xs) * 0.8)
    w, b = [0.0] * args.dim, 0.0
    steps = math.ceil(split / args.batch)
    global_step = 0
    for epoch in range(1, args.epochs + 1):
        start = time.time()
        loss_sum, correct, seen = 0.0, 0, 0
        for s in range(steps):
            lo, hi = s * args.batch, min(split, (s + 1) * args.batch)
            gw, gb = [0.0] * args.dim, 0.0
            for x, y in zip(xs[lo:hi], ys[lo:hi]):
                z = sum(a * c for a, c in zip(w, x)) + b
                p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
                loss_sum += -(y * math.log(p + 1e-9) + (1 - y) * math.log(1 - p + 1e-9))
                correct += int((p > 0.5) == (y > 0.5))
                seen += 1
                for i in range(args.dim):
                    gw[i] += (p - y) * x[i]
                gb += p - y
            n = hi - lo
            w = [wi - args.lr * g / n for wi, g in zip(w, gw)]
            b -= args.lr * gb / n
            global_step += 1
            bar(epoch, args.epochs, s + 1, steps, start, loss_sum / seen, correct / seen)
            time.sleep(args.delay)
        val_loss, val_correct = 0.0, 0
        for x, y in zip(xs[split:], ys[split:]):
            z = sum(a * c for a, c in zip(w, x)) + b
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
            val_loss += -(y * math.log(p + 1e-9) + (1 - y) * math.log(1 - p + 1e-9))
            val_correct += int((p > 0.5) == (y > 0.5))
        report(epoch, args, global_step, loss_sum / seen, correct / seen,
               val_loss / (len(xs) - split), val_correct / (len(xs) - split))


def report(epoch, args, step, loss, acc, val_loss, val_acc):
    print()
    print(f"epoch {epoch}/{args.epochs} step {step} - loss: {loss:.4f} - accuracy: {acc:.4f}"
          f" - val_loss: {val_loss:.4f} - val_accuracy: {val_acc:.4f}")
    print({"loss": round(loss, 4), "learning_rate": args.lr, "epoch": float(epoch)})
    sys.stdout.flush()


def train_torch(args, torch):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    name = torch.cuda.get_device_name(0) if device == "cuda" else "CPU"
    print(f"backend: PyTorch {torch.__version__} on {device} ({name})")
    torch.manual_seed(args.seed)
    n = args.samples
    x = torch.randn(n, args.dim)
    w = torch.randn(args.dim, 1)
    y = ((x @ w + 0.5 * torch.randn(n, 1)) > 0).float()
    split = int(n * 0.8)
    x, y = x.to(device), y.to(device)
    model = torch.nn.Sequential(torch.nn.Linear(args.dim, 64), torch.nn.ReLU(),
                                torch.nn.Linear(64, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    steps = math.ceil(split / args.batch)
    global_step = 0
    for epoch in range(1, args.epochs + 1):
        start = time.time()
        loss_sum, correct, seen = 0.0, 0, 0
        for s in range(steps):
            xb, yb = x[s * args.batch:(s + 1) * args.batch], y[s * args.batch:(s + 1) * args.batch]
            opt.zero_grad()
            logits = model(xb)
            loss = loss_fn(logits, yb)
            loss.backward()
            opt.step()
            loss_sum += loss.item() * len(xb)
            correct += ((logits > 0).float() == yb).sum().item()
            seen += len(xb)
            global_step += 1
            bar(epoch, args.epochs, s + 1, steps, start, loss_sum / seen, correct / seen)
            time.sleep(args.delay)
        with torch.no_grad():
            logits = model(x[split:])
            val_loss = loss_fn(logits, y[split:]).item()
            val_acc = ((logits > 0).float() == y[split:]).float().mean().item()
        report(epoch, args, global_step, loss_sum / seen, correct / seen, val_loss, val_acc)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--samples", type=int, default=2000)
    p.add_argument("--dim", type=int, default=16)
    p.add_argument("--batch", type=int, default=100)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--delay", type=float, default=0.1, help="seconds to pause per step")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--plain", action="store_true", help="skip PyTorch even when installed")
    args = p.parse_args()
    rng = random.Random(args.seed)
    torch = None
    if not args.plain:
        try:
            import torch  # noqa: F401
        except ImportError:
            torch = None
    started = time.time()
    if torch is not None:
        train_torch(args, torch)
    else:
        train_plain(args, rng)
    print(f"done in {time.time() - started:.1f}s")


if __name__ == "__main__":
    main()
