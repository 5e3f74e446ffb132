/** `npm start`: for now the sandbox alone (the demo merchant arrives with the demo issue). */
import '../bin/gw-sandbox.js';
