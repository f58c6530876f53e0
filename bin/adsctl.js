#!/usr/bin/env node
import { runProcess } from '../dist/cli/main.js';

await runProcess(process.argv.slice(2));
