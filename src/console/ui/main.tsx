/** The console's entry point (built by scripts/build-console.mjs into dist/console/console.js). */
import { render } from 'preact';
import { App } from './app.js';
import './console.css';

render(<App />, document.getElementById('root')!);
