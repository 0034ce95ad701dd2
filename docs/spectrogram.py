#!/usr/bin/env python3
"""Draws a WAV's spectrogram, with its loudness over time, as a PNG, and prints the figures one
listens for: RMS level, peak, left/right balance, spectral centroid and the share of the energy
above 4 kHz, over the whole sound and second by second.

    python3 docs/spectrogram.py assets/dam.wav docs/dam-spectrogram.png "dam"

Needs numpy and matplotlib (`pip install numpy matplotlib`); nothing in the build or the tests
runs it.
"""
import sys
import wave

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with wave.open(path, "rb") as f:
        assert f.getsampwidth() == 2, "16-bit PCM"
        rate, channels = f.getframerate(), f.getnchannels()
        data = np.frombuffer(f.readframes(f.getnframes()), dtype="<i2")
    return rate, data.reshape(-1, channels).astype(np.float64) / 32767.0


def db(x):
    return 20.0 * np.log10(np.maximum(x, 1e-6))


def figures(rate, stereo, label):
    mono = stereo.mean(axis=1)
    spectrum = np.abs(np.fft.rfft(mono * np.hanning(len(mono)))) ** 2
    freqs = np.fft.rfftfreq(len(mono), 1.0 / rate)
    total = spectrum.sum() or 1.0
    rms = np.sqrt((stereo**2).mean())
    left, right = np.sqrt((stereo**2).mean(axis=0))
    print(
        f"{label}: {len(mono) / rate:.2f} s, RMS {db(rms):.1f} dBFS, peak {np.abs(stereo).max():.3f}, "
        f"left {db(left):.1f} / right {db(right):.1f} dBFS, "
        f"centroid {(freqs * spectrum).sum() / total:.0f} Hz, "
        f"above 4 kHz {100 * spectrum[freqs > 4000].sum() / total:.1f}%"
    )


def main():
    path, out, title = sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else sys.argv[1]
    rate, stereo = read(path)
    figures(rate, stereo, title)
    for second in range(int(len(stereo) / rate)):
        figures(rate, stereo[second * rate : (second + 1) * rate], f"  {second}-{second + 1} s")
    mono = stereo.mean(axis=1)
    size, hop = 2048, 512
    frames = [mono[i : i + size] * np.hanning(size) for i in range(0, len(mono) - size, hop)]
    power = np.abs(np.fft.rfft(np.array(frames), axis=1)) ** 2
    spectrogram = 10.0 * np.log10(np.maximum(power.T, 1e-12))
    times = np.arange(len(frames)) * hop / rate
    freqs = np.fft.rfftfreq(size, 1.0 / rate)
    window = rate // 20
    loudness = [
        db(np.sqrt((stereo[i : i + window] ** 2).mean(axis=0))) for i in range(0, len(stereo) - window, window)
    ]
    figure, (top, bottom) = plt.subplots(
        2, 1, figsize=(10, 6), sharex=True, gridspec_kw={"height_ratios": [3, 1]}
    )
    peak = spectrogram.max()
    image = top.pcolormesh(times, freqs / 1000.0, spectrogram, vmin=peak - 90, vmax=peak, shading="auto", cmap="magma")
    top.set_ylim(0, 16)
    top.set_ylabel("kHz")
    top.set_title(f"{title}: spectrogram (Hann 2048, hop 512, 90 dB range)")
    figure.colorbar(image, ax=[top, bottom], label="dB")
    loud = np.array(loudness)
    t = np.arange(len(loud)) * window / rate
    bottom.plot(t, loud[:, 0], label="left", linewidth=1)
    bottom.plot(t, loud[:, 1], label="right", linewidth=1)
    bottom.set_ylim(-80, 0)
    bottom.set_ylabel("RMS dBFS (50 ms)")
    bottom.set_xlabel("seconds")
    bottom.legend(loc="upper right")
    figure.savefig(out, dpi=80)


if __name__ == "__main__":
    main()
