#!/usr/bin/env node
// The built, bundled CLI lives in dist/ (made by `npm run build`, which `npm install` runs via `prepare`).
import '../dist/gw.js';
