import { Transform } from 'node:stream';
import { Decompress } from 'fzstd';

// Zstandard for lab archives (docs/archive.md). Node 20 has no zstd in zlib: the stream is compressed in
// frames of 1 MiB by @bokuweb/zstd-wasm (zstd's own C code as WebAssembly) and read by fzstd's streaming
// decoder; concatenated frames are one valid .zst (`zstd -d` reads it), and neither side holds more than a
// frame at a time.

const FRAME_BYTES = 1 << 20;

export async function zstdCompressStream(level = 3): Promise<Transform> {
  const zstd = await import('@bokuweb/zstd-wasm');
  await zstd.init();
  let pending: Buffer[] = [];
  let size = 0;
  const frame = (t: Transform) => {
    if (size === 0) return;
    const input = Buffer.concat(pending, size);
    pending = [];
    size = 0;
    t.push(Buffer.from(zstd.compress(input, level)));
  };
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      pending.push(chunk);
      size += chunk.length;
      try {
        if (size >= FRAME_BYTES) frame(this);
      } catch (e) {
        return cb(e as Error);
      }
      cb();
    },
    flush(cb) {
      try {
        frame(this);
      } catch (e) {
        return cb(e as Error);
      }
      cb();
    },
  });
}

export function zstdDecompressStream(): Transform {
  const decoder = new Decompress((data) => out.push(Buffer.from(data)));
  const out: Transform = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      try {
        decoder.push(chunk);
      } catch (e) {
        return cb(new Error(`not a zstd stream, or a damaged one: ${(e as Error).message}`));
      }
      cb();
    },
    flush(cb) {
      try {
        decoder.push(new Uint8Array(0), true);
      } catch (e) {
        return cb(new Error(`the zstd stream ends early: ${(e as Error).message}`));
      }
      cb();
    },
  });
  return out;
}
