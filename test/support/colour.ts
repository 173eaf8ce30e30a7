// gw loads chalk only when some output can have colour, in runCli (src/output/palette.ts). Tests
// that hand a command's run function a colour terminal directly get it loaded here, before each file.
import { loadColor } from '../../src/output/palette.js';

await loadColor();
