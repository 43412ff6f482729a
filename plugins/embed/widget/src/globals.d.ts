// esbuild loads the widget's CSS files as text (loader `text` in scripts/build-widget.ts).
declare module '*.css' {
  const css: string;
  export default css;
}
