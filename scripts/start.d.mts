// Types of scripts/start.mjs: it hands on demo/main.ts's startDemo.
export { startDemo, type RunningDemo } from '../demo/main.ts';
