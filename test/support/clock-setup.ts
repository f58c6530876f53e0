/**
 * vitest setupFiles: each test file starts at TEST_INSTANT (test-clock.ts). ADSCTL_CLOCK is set to
 * the shift of real time that reads TEST_INSTANT now; the CLI processes the file runs inherit it
 * (run-cli.ts, e2e.ts), the emulators it starts take it (client.ts), and so do its signatures.
 */
import { shiftTo } from '../../src/clock/clock.js';
import { TEST_INSTANT } from './test-clock.js';

process.env['ADSCTL_CLOCK'] = shiftTo(Date.parse(TEST_INSTANT), Date.now());
