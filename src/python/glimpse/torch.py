"""glimpse's tasks as PyTorch data sets: the trainer's own samples, rendered on demand.

    from glimpse.torch import TaskDataset
    data = TaskDataset("cluttered60", split="train", seed=1)
    image, label = data[0]               # float32 tensor (1, 60, 60) in [0, 1], int64 tensor ()
    data.set_epoch(3)                    # training samples are drawn afresh each epoch, as glimpse train draws them
    loader = torch.utils.data.DataLoader(data, batch_size=128, shuffle=True)

Needs PyTorch (Debian's python3-torch) and the compiled part. Sample i of a split is the sample
`glimpse render --split SPLIT --start i --count 1 --epoch E` writes, byte for byte.
"""
import torch as _torch

from . import Task

__all__ = ["TaskDataset"]


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
