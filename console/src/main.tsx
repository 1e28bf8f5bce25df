import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { App } from './app.js';
import { t } from './i18n.js';

document.title = t.title;
render(<App />, document.getElementById('app')!);
