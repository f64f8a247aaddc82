"""vision.read.geometry: boxes under a camera's homography."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.read.geometry import Box

_TILT = cv2.getPerspectiveTransform(
    np.float32([[0, 0], [400, 0], [400, 300], [0, 300]]), np.float32([[80, 0], [320, 0], [400, 300], [0, 300]])
)


@pytest.mark.parametrize(
    ("box", "homography"),
    [
        (Box(10.0, 20.0, 50.0, 80.0), np.eye(3)),
        (Box(10.0, 20.0, 50.0, 80.0), _TILT),
        (Box(300.0, 250.0, 390.0, 299.0), _TILT),
        (Box(0.0, 0.0, 400.0, 300.0), _TILT),
    ],
)
def test_a_projected_box_bounds_its_corners_as_opencv_projects_them(box, homography):
    corners = cv2.perspectiveTransform(np.float32(box.corners).reshape(-1, 1, 2), np.float64(homography))
    xs, ys = corners[:, 0, 0], corners[:, 0, 1]
    got = box.projected(homography)
    assert (got.x1, got.y1, got.x2, got.y2) == pytest.approx((xs.min(), ys.min(), xs.max(), ys.max()), abs=1e-3)


def test_the_whole_tilted_frame_bounds_the_trapezoid():
    b = Box(0.0, 0.0, 400.0, 300.0).projected(_TILT)
    assert (b.x1, b.y1, b.x2, b.y2) == pytest.approx((0.0, 0.0, 400.0, 300.0), abs=1e-6)


def test_a_box_sent_behind_the_camera_is_refused():
    with pytest.raises(ValueError, match="behind the camera"):
        Box(0.0, 0.0, 10.0, 10.0).projected([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 5.0]])
