// The Datasets section (every member of the tenant): the datasets the person
// may read (list.ts) and one dataset's page (detail.ts) at
// /console/datasets/<namespace>/<layer>/<table>. Other parts of the console
// link to a dataset with /console/datasets?dataset=<id>, which becomes that
// path. It calls only the lakehouse's dataset routes; nothing here changes a
// dataset.
import { html } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { shared } from '../../ui/styles.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import './detail.ts';
import './list.ts';
import { DATASETS_STRINGS, type DatasetsStrings } from './strings.ts';
import { datasetPath, SECTION_PATH } from './types.ts';

const PATH = /^\/console\/datasets\/([A-Za-z0-9_]{1,32})\/([A-Za-z0-9_-]{1,64})\/([A-Za-z0-9_]{1,63})$/;
const ID = /^[A-Za-z0-9_]{1,32}\.[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_]{1,63}$/;

export default class DatasetsSection extends TenantSection<DatasetsStrings> {
  static properties = { openId: { state: true } };
  declare openId: string | null;
  private tenantSeen: string | null | undefined;
  protected strings = DATASETS_STRINGS;
  static styles = shared;

  constructor() {
    super();
    this.openId = null;
    this.addEventListener('open-dataset', (event) => this.open((event as CustomEvent<string>).detail));
    this.addEventListener('close-dataset', () => this.close());
  }

  connectedCallback(): void {
    super.connectedCallback();
    addEventListener('popstate', this.syncFromLocation);
  }

  disconnectedCallback(): void {
    removeEventListener('popstate', this.syncFromLocation);
    super.disconnectedCallback();
  }

  /** The dataset the address names (its path, or ?dataset=<id>, which becomes the path), or the list. */
  private readonly syncFromLocation = () => {
    const match = PATH.exec(location.pathname);
    if (match) {
      this.openId = `${match[1]}.${match[2]}.${match[3]}`;
      return;
    }
    const asked = new URLSearchParams(location.search).get('dataset');
    if (location.pathname === SECTION_PATH && asked && ID.test(asked)) {
      history.replaceState(null, '', datasetPath(asked));
      this.openId = asked;
      return;
    }
    this.openId = null;
  };

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('context')) this.syncFromLocation();
    super.willUpdate(changed);
  }

  /** The list and the dataset load their own data; another tenant goes back to the list (the dataset is the previous tenant's). */
  protected contextChanged(context: SectionContext): void {
    const previous = this.tenantSeen;
    this.tenantSeen = context.tenant;
    if (previous !== undefined && previous !== context.tenant && this.openId) {
      history.replaceState(null, '', SECTION_PATH);
      this.openId = null;
    }
  }

  private open(datasetId: string): void {
    history.pushState(null, '', datasetPath(datasetId));
    this.openId = datasetId;
    this.context?.announce(format(this.t.opened, { name: datasetId }));
  }

  private close(): void {
    history.pushState(null, '', SECTION_PATH);
    this.openId = null;
  }

  render() {
    if (!this.context) return html``;
    return this.openId
      ? html`<console-dataset-detail .context=${this.context} .datasetId=${this.openId}></console-dataset-detail>`
      : html`<console-datasets-list .context=${this.context}></console-datasets-list>`;
  }
}
