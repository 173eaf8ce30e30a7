// Where one run's time and memory go, phase by phase: a preload for any Node process (gw or the
// floor), never loaded by gw itself. It prints on stderr, as the process exits, a line per phase:
// milliseconds since the process started (performance.now()), the phase's own duration where it
// has one, and the resident set size then (MB).
//
//   node -r ./scripts/bench-phases.cjs bin/gw.cjs rate BTC USDT --json
//   node -r ./scripts/bench-phases.cjs floor.mjs http://127.0.0.1:<port>/exchange/rate '{}'
//
// Phases: the preload itself (Node's start-up is done), each file read with fs.readFileSync (the
// launcher's bundle and code cache, llhttp's WebAssembly), V8 compiling the bundle (vm.Script, with
// or without its cache), the TCP connection (asked for, made, first answer bytes), the first write
// to stdout, process.stderr being created (it should not be, for a command run into pipes), and exit.
// Add `--trace-gc` before `-r` for garbage collections. A preload changes process.execArgv, so gw
// keeps a code cache of its own for such runs: run once before measuring. Asserts nothing.
'use strict';

const fs = require('node:fs');
const net = require('node:net');
const vm = require('node:vm');

const marks = [];
const rss = () => (process.memoryUsage.rss() / 1048576).toFixed(1);
const mark = (name, started) => {
  const now = performance.now();
  marks.push({ at: started ?? now, took: started === undefined ? undefined : now - started, name, rss: rss() });
};
mark('preload (Node started)');

const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  const started = performance.now();
  const result = readFileSync.call(this, file, ...rest);
  if (typeof file === 'string') mark(`read ${file.slice(file.lastIndexOf('/') + 1)}`, started);
  return result;
};

const Script = vm.Script;
vm.Script = class extends Script {
  constructor(...args) {
    const started = performance.now();
    super(...args);
    mark(`vm.Script${args[1]?.cachedData ? (this.cachedDataRejected ? ' (cache rejected)' : ' (from cache)') : ''}`, started);
  }
};

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  mark('TCP connect asked');
  this.once('connect', () => mark('TCP connected'));
  this.once('data', () => mark('first answer bytes'));
  return connect.apply(this, args);
};

const writeSync = fs.writeSync;
let wrote = false;
fs.writeSync = function (fd, ...rest) {
  if (fd === 1 && !wrote) {
    wrote = true;
    mark('first write to stdout');
  }
  return writeSync.call(this, fd, ...rest);
};

const stderr = Object.getOwnPropertyDescriptor(process, 'stderr');
Object.defineProperty(process, 'stderr', {
  configurable: true,
  enumerable: stderr.enumerable,
  get() {
    mark('process.stderr created');
    Object.defineProperty(process, 'stderr', stderr);
    return stderr.get.call(process);
  },
});

process.on('exit', () => {
  mark('exit');
  const lines = marks.map(
    (m) =>
      `${m.at.toFixed(1).padStart(8)} ms${m.took === undefined ? '         ' : ` +${m.took.toFixed(1).padStart(5)} ms`}  rss ${m.rss.padStart(5)} MB  ${m.name}`,
  );
  writeSync(2, `${lines.join('\n')}\n`);
});
