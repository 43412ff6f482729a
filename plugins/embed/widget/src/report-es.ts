// Entry platform-report.es.js: the imperative mount API of the report element.
import { definePlatformReport, type PlatformReportElement, type PlatformReportOptions } from './report/element.ts';

export interface PlatformReportInstance {
  element: PlatformReportElement;
  /** Removes the element (uploads in flight are stopped). */
  destroy(): void;
}

/** Mounts the report form into `target` (its only child is the element). */
export function mountPlatformReport(target: HTMLElement, options: PlatformReportOptions): PlatformReportInstance {
  definePlatformReport();
  const element = document.createElement('platform-report');
  const { lang, ...props } = options;
  if (lang) element.setAttribute('lang', lang);
  Object.assign(element, props);
  target.appendChild(element);
  return { element, destroy: () => element.remove() };
}

export { definePlatformReport, PlatformReportElement } from './report/element.ts';
export type { PlatformReportOptions, ReportPrefill } from './report/element.ts';
