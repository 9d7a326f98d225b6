// Saves a file through the browser's download (works in Electron too, which asks where).
export function downloadFile(fileName: string, mimeType: string, content: string | Uint8Array): void {
  // A copy into a plain ArrayBuffer: Blob does not take a view of a shared buffer.
  const part = typeof content === 'string' ? content : new Uint8Array(content).buffer;
  const url = URL.createObjectURL(new Blob([part], { type: mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
