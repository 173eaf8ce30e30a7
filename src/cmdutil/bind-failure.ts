// A failure to open a listening socket (gw listen, gw sandbox), said plainly.
import { ExitCode, GwError } from '../errors.js';

/** The port in use, a port that needs privileges, an address this machine does not have; else the error as it is. */
export function bindFailure(error: NodeJS.ErrnoException, what: string, where: string): GwError | NodeJS.ErrnoException {
  if (error.code === 'EADDRINUSE')
    return new GwError(ExitCode.UNAVAILABLE, `cannot serve ${what} on ${where}: the port is in use`, {
      hint: 'choose another --port, or leave it out for a free one',
    });
  if (error.code === 'EACCES')
    return new GwError(ExitCode.UNAVAILABLE, `cannot serve ${what} on ${where}: permission denied`, {
      hint: 'ports below 1024 need privileges: choose a higher --port',
    });
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
    return new GwError(ExitCode.USAGE, `cannot serve ${what} on ${where}: this machine has no such address`);
  return error;
}
