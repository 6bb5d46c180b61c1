"""Texture and surface objects from Python and from both CLIs:
warptlm.Texture / warptlm.Surface over numpy arrays, their checks, and
`exec --arg texture:FILE.npy,...` giving the same outputs in both CLIs."""
import os
import subprocess
import sys

import numpy as np
import pytest

import warptlm
from conftest import SOURCE_DIR

PTX = os.path.join(SOURCE_DIR, "tests", "data", "ptx", "textures", "textures.nvcc.ptx")


def kernel(name):
    return warptlm.Kernel.from_ptx(PTX, name)


def image(h=48, w=64):
    y, x = np.mgrid[0:h, 0:w]
    return (((x * 7 + y * 13) % 23) + np.where(x > w // 2, 100, 0)).astype(np.float32)


@pytest.mark.parametrize("mode", ["functional", "timing"])
def test_rotation_by_zero_averages_the_four_texels_around_each_corner(mode):
    img = image()
    tex = warptlm.Texture(img, filter="linear", address="wrap", normalized_coords=True)
    out = np.full_like(img, -1)
    r = warptlm.Platform("small").launch(kernel("rotate"), (4, 6), (16, 8), [tex, out, 64, 48, 0.0], mode=mode)
    want = 0.25 * (img + np.roll(img, 1, axis=1) + np.roll(img, 1, axis=0) + np.roll(np.roll(img, 1, axis=0), 1, axis=1))
    np.testing.assert_array_equal(out, want.astype(np.float32))
    if mode == "timing":
        assert r.stats["sm.texture_instructions"] > 0


def test_a_surface_array_receives_what_the_kernel_wrote():
    px = (np.arange(20 * 40 * 4) * 37 + 11).astype(np.uint8).reshape(20, 40, 4)
    before = px.copy()
    surf = warptlm.Surface(px, channels=4)
    warptlm.Platform("small").launch(kernel("invert_shifted"), (3, 3), (16, 8), [surf, 40, 20, 0])
    assert (px[..., :3] == 255 - before[..., :3]).all()
    assert (px[..., 3] == before[..., 3]).all()


def test_linear_filtering_weights_have_eight_fractional_bits():
    # Samples at 1.0, 1.3 and 1.6 (texel centres at 0.5, 1.5, ...): fractions
    # 0.5, 0.8 and 0.1 held as 128/256, 205/256 and 26/256.
    tex = warptlm.Texture(np.array([0, 10, 20, 30, 40], np.float32), filter="linear")
    out = np.zeros(3, np.float32)
    warptlm.Platform("small").launch(kernel("sample1d"), 1, 32, [tex, out, 3, 1.0, 0.3])
    assert list(out) == [5.0, 8.0078125, 11.015625]


def test_a_texture_over_memory_another_argument_overlaps_is_refused():
    px = np.zeros((20, 40, 4), np.uint8)
    with pytest.raises(ValueError, match="overlaps the array of argument 0"):
        warptlm.Platform("small").launch(kernel("copy_clamped"), 1, 32,
                                         [warptlm.Surface(px[:10]), warptlm.Surface(px[5:]), 40, 10, 0])


def test_descriptions_are_checked_naming_the_field():
    with pytest.raises(ValueError, match=r"Texture: with 4 channels the array's last axis must be 4, its shape is \(8, 8\)"):
        warptlm.Texture(np.zeros((8, 8), np.uint8), channels=4)
    with pytest.raises(ValueError, match="linear filtering returns floats; s32 texels need read mode normalized_float"):
        warptlm.Texture(np.zeros(8, np.int32), filter="linear")
    with pytest.raises(ValueError, match="'f64' elements cannot be texels"):
        warptlm.Texture(np.zeros(8, np.float64))
    with pytest.raises(ValueError, match="address mode 'repeat' is not one of wrap, clamp, mirror, border"):
        warptlm.Texture(np.zeros(8, np.float32), address="repeat")
    with pytest.raises(TypeError, match="not a 64-bit handle"):
        warptlm.Platform("small").launch(kernel("sample1d"), 1, 32,
                                         [warptlm.Texture(np.zeros(4, np.float32)), np.zeros(3, np.float32),
                                          warptlm.Texture(np.zeros(4, np.float32)), 1.0, 0.5])


def test_a_buffer_where_a_texture_belongs_is_a_kernel_error():
    with pytest.raises(warptlm.KernelError, match="names no texture object"):
        warptlm.Platform("small").launch(kernel("sample1d"), 1, 32,
                                         [np.zeros(4, np.float32), np.zeros(3, np.float32), 3, 1.0, 0.5])


def test_both_clis_take_texture_and_surface_arguments_and_agree(tmp_path):
    outs = []
    for name, cli in (("native", [os.environ["WARPTLM_CLI"]]), ("python", [sys.executable, "-m", "warptlm"])):
        img, out = tmp_path / f"{name}_img.npy", tmp_path / f"{name}_out.npy"
        np.save(img, image())
        np.save(out, np.full((48, 64), -1, np.float32))
        argv = ["exec", PTX, "--kernel", "rotate", "--grid", "4,6", "--block", "16,8",
                "--arg", f"texture:{img},filter=linear,address=wrap,normalized", "--arg", str(out),
                "--arg", "i32:64", "--arg", "i32:48", "--arg", "f32:0.25"]
        subprocess.run([*cli, *argv], capture_output=True, text=True, check=True)
        outs.append(np.load(out))
    np.testing.assert_array_equal(outs[0], outs[1])
    assert (outs[0] != -1).all()
    # The same refusal in the same words.
    errors = []
    for cli in ([os.environ["WARPTLM_CLI"]], [sys.executable, "-m", "warptlm"]):
        np.save(tmp_path / "i.npy", np.zeros((4, 4), np.int32))
        r = subprocess.run([*cli, "exec", PTX, "--kernel", "rotate", "--block", "1",
                            "--arg", f"texture:{tmp_path / 'i.npy'},filter=linear"], capture_output=True, text=True)
        assert r.returncode != 0
        errors.append(r.stderr.strip().splitlines()[-1])
    assert "linear filtering returns floats" in errors[0]
    assert errors[0] == errors[1]
