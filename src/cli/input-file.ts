import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * The bytes of a file named on the command line, refusing anything but a regular file: a FIFO would
 * block the read until a writer comes (forever), a device such as /dev/zero would never end. The file is
 * opened without blocking and judged by what it is, then read. The error is an I/O error of the file's
 * line (IO_ERROR), never a hang.
 */
export async function readInputFile(file: string): Promise<Uint8Array> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      const kind = info.isFIFO()
        ? 'a FIFO'
        : info.isCharacterDevice() || info.isBlockDevice()
          ? 'a device'
          : info.isSocket()
            ? 'a socket'
            : info.isDirectory()
              ? 'a directory'
              : 'not a regular file';
      throw Object.assign(new Error(`${file} is ${kind}, not a regular file.`), { code: 'EINVAL' });
    }
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}
