#!/usr/bin/env node
// The `platform` command's entry. It turns on Node's compile cache first
// (NODE_COMPILE_CACHE, else a folder in the OS's temp dir): a command loads
// every plugin's modules, and compiled once they load in about half the time.
// Then it runs the command (main.ts).
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./main.ts');
