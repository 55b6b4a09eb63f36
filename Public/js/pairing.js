/* GesturePad: this phone's pairing in the settings sheet — its name as the computer knows it
 * (welcome.device, docs/server.md "Pairing"), and "Unpair this phone": a first tap asks, a
 * second within a few seconds unpairs (the computer forgets it, the phone forgets its key). */
import { deviceName } from './address.js';

const CONFIRM_MS = 4000;
const LABEL = 'Unpair this phone';

/** Binds the sheet's device row to `conn`; returns the function that shows the current name. */
export function bindPairing(sheet, conn, state) {
  const row = sheet.querySelector('.row.device');
  const name = row.querySelector('small');
  const button = row.querySelector('[data-action="unpair"]');
  let armed = 0;

  function disarm() {
    clearTimeout(armed);
    armed = 0;
    button.textContent = LABEL;
    button.classList.remove('armed');
  }

  function show() {
    const paired = state.device ? state.device.name : deviceName();
    name.textContent = paired || 'not paired';
    button.disabled = !paired;
    if (!paired) disarm();
  }

  button.addEventListener('click', () => {
    if (!armed) {
      button.textContent = 'Tap again to unpair';
      button.classList.add('armed');
      armed = setTimeout(disarm, CONFIRM_MS);
      return;
    }
    disarm();
    conn.unpair();
    show();
  });
  show();
  return show;
}
