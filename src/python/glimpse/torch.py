"""glimpse's tasks as PyTorch data sets (the trainer's own samples, rendered on demand), and RAM in
PyTorch (the model and step of `glimpse bench`, for speed comparisons and as an example).

    from glimpse.torch import TaskDataset
    data = TaskDataset("cluttered60", split="train", seed=1)
    image, label = data[0]               # float32 tensor (1, 60, 60) in [0, 1], int64 tensor ()
    data.set_epoch(3)                    # training samples are drawn afresh each epoch, as glimpse train draws them
    loader = torch.utils.data.DataLoader(data, batch_size=128, shuffle=True)

Needs PyTorch (Debian's python3-torch) and the compiled part. Sample i of a split is the sample
`glimpse render --split SPLIT --start i --count 1 --epoch E` writes, byte for byte.
"""
import torch as _torch
import torch.nn as nn
import torch.nn.functional as F

from . import Task

__all__ = ["TaskDataset", "Ram"]


class TaskDataset(_torch.utils.data.Dataset):
    """A map-style data set over one split of a registered task (glimpse.task_names()).

    TaskDataset(name, split="train", seed=1, dataset="mnist", data_dir=None, epoch=0): item i is
    (image, label), image a float32 tensor (1, H, W) in [0, 1] and label an int64 tensor (the class: the
    digit, the pair 10 a + b on pairs100, the sum on sum100, the slot on strip5)."""

    def __init__(self, name, split="train", seed=1, dataset="mnist", data_dir=None, epoch=0):
        if split not in ("train", "val", "test"):
            raise ValueError(f"split: expected 'train', 'val' or 'test', found {split!r}")
        self.task = Task(name, seed=seed, dataset=dataset, data_dir=data_dir)
        self.split = split
        self.epoch = epoch

    def set_epoch(self, epoch):
        """The epoch whose training samples (positions, clutter) items are drawn for; validation and
        test samples do not depend on it."""
        self.epoch = epoch

    def __len__(self):
        return self.task.size(self.split)

    def __getitem__(self, index):
        if not 0 <= index < len(self):
            raise IndexError(f"index {index} outside the {self.split} split's {len(self)} samples")
        images, labels = self.task.batch(self.split, start=int(index), count=1, epoch=self.epoch)
        return _torch.from_numpy(images[0][None]), _torch.tensor(int(labels[0]), dtype=_torch.int64)


class Ram(nn.Module):
    """RAM on mnist28 as `glimpse bench` trains it: 6 glimpses of one g x g patch, glimpse network
    128/128 -> 256, ReLU RNN 256, Gaussian policy std 0.1 with a tanh mean, a learned baseline
    (scripts/bench/ram__torch.py times its step; scripts/examples/train_torch_ram.py trains it)."""

    def __init__(self, g=8, hidden=256, gh=128, steps=6, std=0.1):
        super().__init__()
        self.g, self.steps, self.std = g, steps, std
        self.fc_x, self.fc_l = nn.Linear(g * g, gh), nn.Linear(2, gh)
        self.fc_hg, self.fc_hl = nn.Linear(gh, hidden), nn.Linear(gh, hidden, bias=False)
        self.core_in, self.core_hh = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden, bias=False)
        self.loc, self.act, self.base = nn.Linear(hidden, 2), nn.Linear(hidden, 10), nn.Linear(hidden, 1)

    def glimpse(self, images, loc):
        # One g x g patch centred at loc (in [-1, 1]^2, unit = half the canvas), zero outside: gather
        # from a zero-padded canvas with per-image index grids.
        B, H, W = images.shape
        g = self.g
        padded = F.pad(images, (g, g, g, g))
        cx = (W / 2 + loc[:, 0] * W / 2 - g / 2 + 0.5).floor().long() + g
        cy = (H / 2 + loc[:, 1] * H / 2 - g / 2 + 0.5).floor().long() + g
        ar = _torch.arange(g)
        rows = (cy[:, None] + ar[None, :]).clamp(0, H + 2 * g - 1)
        cols = (cx[:, None] + ar[None, :]).clamp(0, W + 2 * g - 1)
        b = _torch.arange(B)[:, None, None]
        return padded[b, rows[:, :, None], cols[:, None, :]].reshape(B, g * g)

    def forward(self, images, greedy=False):
        """Logits (B, 10), log-probabilities of the locations (B, T), baselines (B, T); greedy: every
        location is the policy's mean (evaluation)."""
        B = images.shape[0]
        h = images.new_zeros(B, self.core_in.out_features)
        logps, baselines = [], []
        for t in range(self.steps):
            mu = _torch.tanh(self.loc(h.detach()))
            loc = (mu if greedy else mu + self.std * _torch.randn_like(mu)).detach()
            logps.append(_torch.distributions.Normal(mu, self.std).log_prob(loc).sum(1))
            baselines.append(self.base(h.detach()).squeeze(1))
            x = self.glimpse(images, loc.clamp(-1, 1))
            g = F.relu(self.fc_hg(F.relu(self.fc_x(x))) + self.fc_hl(F.relu(self.fc_l(loc.clamp(-1, 1)))))
            h = F.relu(self.core_in(g) + (self.core_hh(h) if t > 0 else 0))
        return self.act(h), _torch.stack(logps, 1), _torch.stack(baselines, 1)
