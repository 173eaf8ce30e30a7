// A phone camera's photo of a screen, for measuring how a QR drawn in a terminal survives being
// photographed: the screen's pixels (screenRaster) turned slightly, defocused, with sensor noise,
// the screen's contrast and, optionally, a reflection (a bright spot, as a lamp on the glass).
// Deterministic: each photo is made from a seed. A model, not a phone: it ranks the ways of
// drawing a code against each other (docs/decisions.md), it does not predict a given phone.
import type { Raster } from './qr-decode.js';

export interface Photo {
  /** Degrees, either way at most (each photo draws one from the seed). */
  tilt: number;
  /** Box blur radius in pixels, applied twice (about a Gaussian). */
  blur: number;
  /** Standard deviation of the sensor noise, in grey levels. */
  noise: number;
  /** Radius of a reflection as a fraction of the symbol's side (`code`, else the photo's shorter side); 0 for none. */
  glare: number;
  /** Where the symbol is in the image (its quiet zone aside), in pixels: the reflection falls on its middle. */
  code?: { x: number; y: number; width: number; height: number };
  seed: number;
}

function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The photo of `image` (RGBA), as grey RGBA. */
export function photograph(image: Raster, photo: Photo): Raster {
  const rnd = random(photo.seed);
  const { width: w, height: h } = image;
  const grey = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) grey[i] = 0.299 * image.data[4 * i]! + 0.587 * image.data[4 * i + 1]! + 0.114 * image.data[4 * i + 2]!;
  // Tilt: each pixel of the photo looks up the screen's pixel it sees (nearest), the border's colour outside.
  const angle = ((rnd() * 2 - 1) * photo.tilt * Math.PI) / 180;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  let a = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const dx = x - w / 2;
      const dy = y - h / 2;
      const u = Math.floor(cos * dx + sin * dy + w / 2);
      const v = Math.floor(-sin * dx + cos * dy + h / 2);
      a[y * w + x] = u >= 0 && v >= 0 && u < w && v < h ? grey[v * w + u]! : grey[0]!;
    }
  }
  // Defocus: a box blur, twice, each way.
  const r = Math.round(photo.blur);
  for (let pass = 0; pass < 2 && r > 0; pass++) {
    for (const horizontal of [true, false]) {
      const b = new Float32Array(w * h);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          let sum = 0;
          let n = 0;
          for (let d = -r; d <= r; d++) {
            const [xx, yy] = horizontal ? [x + d, y] : [x, y + d];
            if (xx >= 0 && yy >= 0 && xx < w && yy < h) {
              sum += a[yy * w + xx]!;
              n++;
            }
          }
          b[y * w + x] = sum / n;
        }
      }
      a = b;
    }
  }
  // A reflection: a bright spot somewhere in the middle of the photo.
  if (photo.glare > 0) {
    const area = photo.code ?? { x: 0, y: 0, width: w, height: h };
    const [gx, gy] = [area.x + area.width * (0.3 + 0.4 * rnd()), area.y + area.height * (0.3 + 0.4 * rnd())];
    const radius = photo.glare * Math.min(area.width, area.height);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const d = Math.hypot(x - gx, y - gy) / radius;
        if (d < 1) a[y * w + x] = a[y * w + x]! + (320 - a[y * w + x]!) * (1 - d * d);
      }
    }
  }
  // The screen's contrast as the sensor records it, and its noise.
  const data = new Uint8ClampedArray(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    const gauss = Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
    const v = 45 + a[i]! * 0.7 + gauss * photo.noise;
    data[4 * i] = v;
    data[4 * i + 1] = v;
    data[4 * i + 2] = v;
    data[4 * i + 3] = 255;
  }
  return { width: w, height: h, data };
}
