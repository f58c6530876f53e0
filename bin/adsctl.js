#!/usr/bin/env node
import { runProcess } from '../dist/bundle/main.js';

await runProcess(process.argv.slice(2));
