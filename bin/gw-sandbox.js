#!/usr/bin/env node
// The sandbox CLI lives in the built package so `npx gw-sandbox` starts without a TypeScript toolchain.
import '../dist/sandbox-cli.js';
