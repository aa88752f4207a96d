// The admin's passkey step: asks the browser for a passkey answering the server's options
// (WebAuthn, JSON as py_webauthn writes it) and posts the answer as JSON in `credential`.
"use strict";
(() => {
  const form = document.getElementById("passkey-form");
  const optionsNode = document.getElementById("passkey-options");
  if (!form || !optionsNode) return;
  if (!window.PublicKeyCredential) {
    form.hidden = true;
    return;
  }
  const options = JSON.parse(optionsNode.textContent);
  const toBytes = (text) => {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  };
  const toText = (buffer) =>
    btoa(String.fromCharCode(...new Uint8Array(buffer)))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = document.getElementById("passkey-error");
    error.hidden = true;
    try {
      const credential = await navigator.credentials.get({
        publicKey: {
          ...options,
          challenge: toBytes(options.challenge),
          allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })),
        },
      });
      const answer = credential.response;
      form.elements.credential.value = JSON.stringify({
        id: credential.id,
        rawId: toText(credential.rawId),
        type: credential.type,
        response: {
          clientDataJSON: toText(answer.clientDataJSON),
          authenticatorData: toText(answer.authenticatorData),
          signature: toText(answer.signature),
          userHandle: answer.userHandle ? toText(answer.userHandle) : null,
        },
        clientExtensionResults: credential.getClientExtensionResults(),
        authenticatorAttachment: credential.authenticatorAttachment,
      });
      form.submit();
    } catch {
      error.hidden = false;
    }
  });
})();
