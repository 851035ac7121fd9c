import { app } from 'electron';

// The desktop shell lands with its own issue; until then it only proves the build wiring.
void app.whenReady().then(() => app.quit());
