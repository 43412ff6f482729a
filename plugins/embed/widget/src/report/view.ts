// The report element's templates: the form (type, text, the type's fields,
// the map, contact, photos), the similar reports found before sending, and the
// confirmation. Every control is labelled; problems go to an alert region that
// takes focus, progress to a polite status region.
import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { format } from '../i18n.ts';
import { renderField } from './fields.ts';
import type { PlatformReportElement, Photo } from './element.ts';

const value = (e: Event) => (e.target as HTMLInputElement).value;

export function renderReport(r: PlatformReportElement) {
  const s = r.strings;
  const busy = r.phase === 'checking' || r.phase === 'submitting';
  return html`
    <section class="report" part="report" aria-labelledby="report-heading" aria-busy=${r.phase === 'loading' || busy ? 'true' : 'false'}>
      <h2 id="report-heading">${s.heading}</h2>
      <div class="status" part="status" role="status" aria-live="polite">${r.phase === 'loading' ? s.loading : r.status}</div>
      ${r.phase === 'failed' ? html`<div class="problems" part="error" role="alert">${r.failure}</div>` : nothing}
      ${r.phase === 'loading' || r.phase === 'failed' ? nothing : html`
        ${renderForm(r, busy)}
        ${r.phase === 'duplicates' ? renderSimilar(r) : nothing}
        ${r.phase === 'done' ? renderDone(r) : nothing}`}
    </section>`;
}

function renderProblems(r: PlatformReportElement) {
  const s = r.strings;
  // Always in the page: a change of its content is announced.
  return html`<div class="problems" part="error" role="alert" tabindex="-1" ?hidden=${r.problems.length === 0}>
    ${r.problems.length ? html`<p>${s.fixErrors}</p><ul>${r.problems.map((p) => html`<li>${p.message}</li>`)}</ul>` : nothing}</div>`;
}

const invalid = (r: PlatformReportElement, field: string) => (r.problems.some((p) => p.field === field) ? 'true' : 'false');

function renderForm(r: PlatformReportElement, busy: boolean) {
  const s = r.strings;
  const type = r.type;
  const fixed = r.types.length === 1;
  return html`
    <form part="form" novalidate ?hidden=${r.phase === 'duplicates' || r.phase === 'done'} @submit=${(e: Event) => { e.preventDefault(); void r.submit(); }}>
      ${renderProblems(r)}
      ${fixed ? html`<p class="fixed-type"><span class="muted">${s.type}</span> <strong>${r.types[0]!.name}</strong></p>` : html`
        <div class="field"><label for="report-type">${s.type}<span class="req" aria-hidden="true"> *</span></label>
          <select id="report-type" required aria-invalid=${invalid(r, 'occurrence_type')} @change=${(e: Event) => r.chooseType(value(e) ? Number(value(e)) : null)}>
            <option value="" ?selected=${r.typeId === null}>${s.chooseType}</option>
            ${r.types.map((t) => html`<option value=${String(t.id)} ?selected=${t.id === r.typeId}>${t.name}</option>`)}
          </select></div>`}
      <div class="field"><label for="report-title">${s.title}<span class="req" aria-hidden="true"> *</span></label>
        <input id="report-title" required maxlength="300" autocomplete="off" aria-invalid=${invalid(r, 'title')} .value=${live(r.title)} @input=${(e: Event) => { r.title = value(e); }}></div>
      <div class="field"><label for="report-description">${s.description}</label>
        <textarea id="report-description" rows="3" maxlength="5000" .value=${live(r.description)} @input=${(e: Event) => { r.description = value(e); }}></textarea></div>
      ${type?.form_schema.version === 'v0' && type.form_schema.dynamic_fields.length ? html`
        <fieldset class="group"><legend>${s.details}</legend>
          ${type.form_schema.dynamic_fields.map((f) => renderField(f, r.values, s, r.changed, new Set(r.problems.map((p) => p.field))))}</fieldset>` : nothing}
      ${type?.form_schema.version === 'v1' ? html`
        <fieldset class="group formio"><legend>${s.details}</legend>
          ${r.formioState === 'loading' ? html`<p class="muted">${s.loading}</p>` : r.formioState === 'failed' ? html`<p class="warning">${s.formFailed}</p>` : nothing}
          <slot name="form"></slot></fieldset>` : nothing}
      ${renderLocation(r)}
      <fieldset class="group"><legend>${s.contact}</legend>
        <div class="field"><label for="report-name">${s.name}</label><input id="report-name" autocomplete="name" .value=${live(r.reporterName)} @input=${(e: Event) => { r.reporterName = value(e); }}></div>
        <div class="field"><label for="report-email">${s.email}</label><input id="report-email" type="email" autocomplete="email" aria-invalid=${invalid(r, 'reporter_email')} .value=${live(r.reporterEmail)} @input=${(e: Event) => { r.reporterEmail = value(e); }}></div>
        <div class="field"><label for="report-phone">${s.phone}</label><input id="report-phone" type="tel" autocomplete="tel" .value=${live(r.reporterPhone)} @input=${(e: Event) => { r.reporterPhone = value(e); }}></div>
      </fieldset>
      ${renderPhotos(r)}
      <button class="primary" part="submit" type="submit" ?disabled=${busy}>${busy ? (r.phase === 'checking' ? s.checking : s.submitting) : s.submit}</button>
    </form>`;
}

function renderLocation(r: PlatformReportElement) {
  const s = r.strings;
  return html`
    <fieldset class="group location" aria-invalid=${invalid(r, 'location')}><legend>${s.location}<span class="req" aria-hidden="true"> *</span></legend>
      <div class="map" part="map" tabindex="0"></div>
      ${r.mapState === 'loading' ? html`<p class="muted">${s.mapLoading}</p>` : r.mapState === 'failed' ? html`<p class="muted">${s.mapFailed}</p>` : nothing}
      <div class="row">
        <button class="secondary" type="button" @click=${() => r.locate()}>${s.useMyLocation}</button>
        <span class="point" part="point">${r.point ? format(s.pointSet, { lat: r.point.lat.toFixed(5), lng: r.point.lng.toFixed(5) }) : s.noPoint}</span>
      </div>
      ${r.outside ? html`<p class="warning" part="warning">${s.outsideArea}</p>` : nothing}
      <div class="field"><label for="report-address">${s.address}</label>
        <input id="report-address" autocomplete="street-address" .value=${live(r.address)} @input=${(e: Event) => { r.address = value(e); }}></div>
    </fieldset>`;
}

function photoText(r: PlatformReportElement, p: Photo): string {
  const s = r.strings;
  if (p.state === 'progress') return format(s.uploading, { name: p.name, percent: p.percent });
  if (p.state === 'done') return format(s.uploaded, { name: p.name });
  return format(s.uploadFailed, { name: p.name, reason: p.reason ?? '' });
}

function renderPhotos(r: PlatformReportElement) {
  const s = r.strings;
  return html`
    <fieldset class="group photos"><legend>${s.photos}</legend>
      <label class="file" for="report-photos">${s.addPhotos}</label>
      <input id="report-photos" type="file" accept="image/*" multiple
        @change=${(e: Event) => { const input = e.target as HTMLInputElement; r.addPhotos(input.files); input.value = ''; }}>
      ${r.photos.length ? html`<ul class="photo-list" part="photos">
        ${r.photos.map((p) => html`<li class=${p.state} data-photo=${p.key}>
          <span role=${p.state === 'failed' ? 'alert' : 'status'}>${photoText(r, p)}</span>
          ${p.state === 'progress' ? html`<progress max="100" .value=${p.percent} aria-label=${p.name}></progress>` : nothing}
          <button class="text-button" type="button" @click=${() => r.removePhoto(p)}>${format(s.remove, { name: p.name })}</button></li>`)}
      </ul>` : nothing}
    </fieldset>`;
}

function renderSimilar(r: PlatformReportElement) {
  const s = r.strings;
  return html`
    <div class="similar" part="similar">
      <h3 tabindex="-1">${s.similarHeading}</h3>
      <p>${s.similarIntro}</p>
      <ul>${r.similar.map((item) => html`<li data-reference=${item.reference}>
        <strong>${item.title}</strong>
        <span class="muted">${format(s.distance, { meters: Math.round(item.distance_m) })} · ${format(s.state, { state: item.state })} · ${item.reference}</span>
        <button class="secondary" type="button" aria-label=${`${s.supportThis}: ${item.title}`} @click=${() => r.supportInstead(item.reference)}>${s.supportThis}</button></li>`)}
      </ul>
      <button class="primary" type="button" @click=${() => r.submitNew()}>${s.submitNew}</button>
    </div>`;
}

function renderDone(r: PlatformReportElement) {
  const s = r.strings;
  const result = r.result!;
  const tracking = `${(r.apiUrl ?? '').replace(/\/+$/, '')}/track/${encodeURIComponent(r.tenant ?? '')}/${encodeURIComponent(result.reference)}`;
  return html`
    <div class="confirmation" part="confirmation">
      <h3 tabindex="-1">${result.supported ? s.supportedHeading : s.doneHeading}</h3>
      <p class="reference" part="reference">${format(s.reference, { reference: result.reference })}</p>
      ${result.supported && result.supportCount ? html`<p>${format(s.supportCount, { count: result.supportCount })}</p>` : nothing}
      <p><a part="tracking-link" href=${tracking} target="_blank" rel="noopener">${s.track}</a></p>
      <button class="secondary" type="button" @click=${() => r.reset()}>${s.another}</button>
    </div>`;
}
