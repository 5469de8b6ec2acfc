/**
 * The signing page's stylesheet (served at /signing/assets/signing.css, so
 * the CSP needs no 'unsafe-inline'). One column on phones, documents beside
 * the signature panel from 900 px; visible focus everywhere; colours with at
 * least 4.5:1 contrast.
 */
export const signingPageCss = `
*, *::before, *::after { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1d2433; background: #eef1f6; }
body { margin: 0; line-height: 1.5; }
.bar { background: #16325c; color: #fff; padding: .5rem 1rem; }
.brand { margin: 0; font-weight: 600; letter-spacing: .02em; display: flex; align-items: center; gap: .5rem; }
.brand-logo { max-height: 2rem; max-width: 10rem; }
h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
h3 { font-size: 1rem; margin: 1rem 0 .5rem; }
.layout { display: grid; gap: 1rem; padding: 1rem; grid-template-columns: minmax(0, 1fr); grid-template-areas: "intro" "panel" "docs"; max-width: 1280px; margin: 0 auto; }
@media (min-width: 900px) {
  .layout { grid-template-columns: minmax(0, 1fr) 320px; grid-template-areas: "intro panel" "docs panel"; align-items: start; }
  .panel { position: sticky; top: 1rem; }
}
.intro { grid-area: intro; }
.panel { grid-area: panel; background: #fff; border: 1px solid #c8d0dc; border-radius: 8px; padding: 1rem; }
.documents { grid-area: docs; min-width: 0; }
.help { color: #3d4759; font-size: .92rem; }
label { display: block; font-weight: 600; margin: .5rem 0 .25rem; }
input[type=text], textarea { width: 100%; font: inherit; padding: .5rem; border: 1px solid #6b778c; border-radius: 4px; }
button { font: inherit; cursor: pointer; border-radius: 4px; padding: .55rem 1rem; border: 1px solid transparent; }
button.primary { background: #0b5cad; color: #fff; width: 100%; font-weight: 600; }
button.secondary { background: #fff; color: #0b5cad; border-color: #0b5cad; width: 100%; margin-top: .5rem; }
button.danger { background: #a4161a; color: #fff; margin-top: .5rem; }
:focus-visible { outline: 3px solid #f59f00; outline-offset: 2px; }
.error { background: #fdecea; border: 1px solid #a4161a; color: #7a1013; padding: .5rem .75rem; border-radius: 4px; }
.preview-label { margin: .5rem 0 0; font-size: .85rem; color: #3d4759; }
.signature-preview, .tab.is-signed, .placed { font-family: "Brush Script MT", "Segoe Script", "URW Chancery L", "Z003", cursive, "Times New Roman", serif; font-style: italic; font-weight: 700; color: #0d2673; }
.signature-preview { font-size: 1.6rem; min-height: 2.4rem; border-bottom: 1px solid #6b778c; margin: 0 0 1rem; overflow-wrap: anywhere; }
.decline { margin-top: 1rem; }
.decline summary { cursor: pointer; color: #a4161a; font-weight: 600; }
.pages { display: flex; flex-direction: column; gap: 1rem; }
.page { position: relative; background: #fff; box-shadow: 0 1px 4px rgba(0,0,0,.25); width: 100%; max-width: 900px; }
.page canvas { display: block; width: 100%; height: auto; }
/* A size container: fields on the page set their text in cqw, so it scales with the page (phone or desktop). */
.page { container-type: inline-size; }
.page .on-page { position: absolute; margin: 0; padding: 0 .15em; border: 1px solid #0b5cad; border-radius: 2px; background: rgba(230, 238, 255, .92); color: #1d2433; font: inherit; line-height: 1; box-sizing: border-box; }
.page input.on-page[type=checkbox], .page input.on-page[type=radio] { padding: 0; accent-color: #0b5cad; background: none; }
.page select.on-page { padding: 0; }
.page .radio-caption { position: absolute; white-space: nowrap; color: #1d2433; pointer-events: none; }
.page .on-page[readonly], .page .on-page:disabled { border-color: #8a94a6; background: rgba(238, 241, 245, .92); color: #3d4759; }
.page .on-page.is-required { border: 2px solid #a4161a; }
.page .on-page.is-next, .page .tab.is-next { outline: 3px solid #f59f00; outline-offset: 1px; }
.page .tab.initials { font-size: clamp(.55rem, 1.3vw, .8rem); }
.page .error.at-field { position: absolute; z-index: 2; min-width: 12rem; max-width: 90%; margin-top: 2px; font-size: .85rem; padding: .25rem .5rem; }
.field.is-placed { font-size: .9rem; }
.page.placing { cursor: crosshair; }
.page-number { position: absolute; right: .5rem; bottom: .25rem; font-size: .75rem; color: #3d4759; }
.tab, .placed { position: absolute; display: flex; align-items: center; justify-content: center; padding: 0 .25rem; border: 2px dashed #b35c00; background: rgba(255, 214, 102, .85); color: #4a2600; font-weight: 700; font-size: clamp(.6rem, 1.6vw, .95rem); overflow: hidden; white-space: nowrap; }
.tab.is-signed, .placed { border-style: solid; border-color: #0d2673; color: #0d2673; background: rgba(230, 238, 255, .9); font-size: clamp(.7rem, 2vw, 1.2rem); }
.message { max-width: 40rem; margin: 2rem auto; background: #fff; padding: 1.5rem; border-radius: 8px; border: 1px solid #c8d0dc; }
.loading { color: #3d4759; }
.fields { border: 1px solid #c8d0dc; border-radius: 6px; padding: .5rem .75rem; margin: 0 0 1rem; }
.fields legend { font-weight: 600; }
.field { margin: .4rem 0; }
.field label, .radios legend { display: block; font-size: .9rem; }
.field.checkbox label, .radios label { display: inline; }
.field input[type=text], .field select { width: 100%; box-sizing: border-box; }
.field[data-locked] input, .field[data-locked] select { background: #eef1f5; color: #3d4759; }
.required { color: #a4161a; }
/* Approve, decline, view and attachment tabs: buttons on the document (and in the list beside it). */
.tab-button { display: inline-flex; align-items: center; justify-content: center; padding: .25rem .75rem; border: 1px solid #0b5cad; border-radius: 4px; background: #e6eeff; color: #0b5cad; font-weight: 600; text-decoration: none; white-space: nowrap; overflow: hidden; }
.tab-button.danger { border-color: #a4161a; background: #fdecea; color: #a4161a; margin-top: 0; }
.tab-button.is-opened { background: #e3f4e8; border-color: #1e7b34; color: #1e6b2e; }
.tab-button.attachment { border-style: dashed; color: #3d4759; cursor: not-allowed; }
.page .tab-button.on-page { justify-content: center; font-weight: 600; }
.message.wide { max-width: 60rem; }
table.list { width: 100%; border-collapse: collapse; margin: .5rem 0 1rem; }
table.list caption { text-align: left; font-weight: 600; padding: .25rem 0; }
table.list th, table.list td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #c8d0dc; }
.actions { display: flex; gap: .75rem; flex-wrap: wrap; }
.actions form { flex: 1 1 12rem; }
.folders { list-style: none; display: flex; flex-wrap: wrap; gap: .5rem; padding: 0; }
.folders a { display: inline-block; padding: .25rem .6rem; border: 1px solid #0b5cad; border-radius: 4px; color: #0b5cad; text-decoration: none; }
.folders a[aria-current=page] { background: #0b5cad; color: #fff; }
.count { font-size: .85rem; }
.blurb { white-space: pre-wrap; }
`;
