// Entry platform-report.ce.js: defines <platform-report> as a side effect.
import { definePlatformReport } from './report/element.ts';

definePlatformReport();

export { PlatformReportElement } from './report/element.ts';
