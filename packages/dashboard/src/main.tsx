import { render } from 'preact';
import { App } from './app.js';
import './styles.css';

// the API is the origin that served the dashboard (the reference server mounts it at /dashboard)
render(<App baseUrl={location.origin} />, document.getElementById('app')!);
