"""A pinhole camera with radial lens distortion, posed over the table."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Camera:
    """World-to-image projection. ``rot`` rows are the camera's right, down and forward axes in world coordinates."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    rot: np.ndarray  # 3x3
    pos: np.ndarray  # 3
    k1: float = 0.0
    k2: float = 0.0

    @classmethod
    def looking_at(
        cls,
        width: int,
        height: int,
        target: np.ndarray,
        distance: float,
        elevation: float,
        azimuth: float,
        roll: float,
        fov_x: float,
        aspect: float = 1.0,
        k1: float = 0.0,
        k2: float = 0.0,
        offset: tuple[float, float] = (0.0, 0.0),
    ) -> Camera:
        """A camera ``distance`` mm from ``target``, ``elevation`` radians above the table, turned by ``roll``."""
        target = np.asarray(target, float)
        pos = target + distance * np.array(
            [math.cos(elevation) * math.cos(azimuth), math.cos(elevation) * math.sin(azimuth), math.sin(elevation)]
        )
        fwd = target - pos
        fwd /= np.linalg.norm(fwd)
        hint = np.array([0.0, 0.0, 1.0])
        right = np.cross(fwd, hint)
        right /= np.linalg.norm(right)
        down = np.cross(fwd, right)
        c, s = math.cos(roll), math.sin(roll)
        right, down = c * right + s * down, -s * right + c * down
        fx = (width / 2) / math.tan(fov_x / 2)
        return cls(
            width,
            height,
            fx,
            fx * aspect,
            width / 2 + offset[0],
            height / 2 + offset[1],
            np.stack([right, down, fwd]),
            pos,
            k1,
            k2,
        )

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        return (np.asarray(points, float) - self.pos) @ self.rot.T

    def project(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Image points (N x 2) of world points and their depths (N); depth <= 0 is behind the camera."""
        pc = self.to_camera(points)
        z = pc[:, 2]
        safe = np.where(z > 1e-6, z, 1e-6)
        xn, yn = pc[:, 0] / safe, pc[:, 1] / safe
        r2 = xn * xn + yn * yn
        f = 1 + self.k1 * r2 + self.k2 * r2 * r2
        if self.k1 < 0:  # beyond the fold of the distortion polynomial points would wrap back into view
            z = np.where(r2 < 0.8 / (3 * -self.k1), z, -1.0)
        return np.stack([self.fx * xn * f + self.cx, self.fy * yn * f + self.cy], axis=1), z

    def rays(self) -> np.ndarray:
        """World directions (H x W x 3) through every pixel centre, lens distortion undone."""
        u = (np.arange(self.width, dtype=np.float32) + 0.5 - self.cx) / self.fx
        v = (np.arange(self.height, dtype=np.float32) + 0.5 - self.cy) / self.fy
        xd, yd = np.meshgrid(u, v)
        xn, yn = xd.copy(), yd.copy()
        for _ in range(4):  # fixed-point undistortion
            r2 = xn * xn + yn * yn
            f = 1 + self.k1 * r2 + self.k2 * r2 * r2
            xn, yn = xd / f, yd / f
        dirs = np.stack([xn, yn, np.ones_like(xn)], axis=-1)
        return dirs @ self.rot.astype(np.float32)
