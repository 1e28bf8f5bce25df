// Starts the console: the styles, the page title in its language, the app.
import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import '../../clients/web/visually-hidden.css';
import './styles.css';
import { App } from './app.js';
import { t } from './i18n.js';

document.title = t.title;
render(<App />, document.getElementById('app')!);
