// ascvet's VS Code extension: it runs `ascvet lsp`, ascvet's language
// server, over stdio and hands it the Ascend C kernels VS Code opens. The
// diagnostics, quick fixes, suppressions and hovers are all the server's;
// this file finds the executable, starts it, and restarts it when asked or
// when its settings change. Plain JavaScript, loaded as is: no build step.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

// INSTALL is the command the error messages give when ascvet is missing.
const INSTALL = 'go install github.com/ascvet/ascvet/cmd/ascvet@latest';

// CPP is the C++ files the server reads besides .asc.
const CPP = '**/*.{cpp,cc,cxx,h,hh,hpp,hxx}';

// documentSelector is the documents sent to the server: files on disk only
// (not git: or untitled ones, which have no directory for the kernel's
// includes), and of those only the names the server analyzes, since the
// cpp and c language ids also cover .c, .ino, .ipp and more. A .h may be
// opened as C or C++. The .asc filter names no language: .asc files get
// the id ascendc from package.json, which VS Code otherwise lacks, but a
// user's files.associations or another extension (AsciiDoc claims .asc
// too) may give them another, and they should reach ascvet all the same.
const documentSelector = [
  { scheme: 'file', language: 'cpp', pattern: CPP },
  { scheme: 'file', language: 'c', pattern: CPP },
  { scheme: 'file', language: 'python', pattern: '**/*.py' },
  { scheme: 'file', pattern: '**/*.asc' },
];

let output; // the ascvet output channel: the server's stderr and traces, kept across restarts
let client; // the running LanguageClient, or undefined
let queue = Promise.resolve(); // starts and stops, one after another

function activate(context) {
  output = vscode.window.createOutputChannel('ascvet');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('ascvet.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // ascvet.trace.server needs no restart: the client follows it itself.
      if (e.affectsConfiguration('ascvet.path') || e.affectsConfiguration('ascvet.args')) {
        restart();
      }
    }),
  );
  return restart();
}

function deactivate() {
  return serially(stop);
}

// restart stops the server, if one runs, and starts it with the current
// settings: a new client, since a LanguageClient keeps the command it was
// made with.
function restart() {
  return serially(async () => {
    await stop();
    await start();
  });
}

// serially runs step after the starts and stops already asked for, so that
// two quick restarts never run two servers.
function serially(step) {
  queue = queue.then(step).catch((err) => output.appendLine(`ascvet: ${err && err.stack ? err.stack : err}`));
  return queue;
}

async function start() {
  const config = vscode.workspace.getConfiguration();
  const configured = config.get('ascvet.path') || 'ascvet';
  const extra = config.get('ascvet.args') || [];
  const folders = (vscode.workspace.workspaceFolders || []).filter((f) => f.uri.scheme === 'file');
  const folder = folders.length > 0 ? folders[0].uri.fsPath : undefined;
  const command = findExecutable(configured, folder);
  if (command === undefined) {
    notFound(configured);
    return;
  }
  // No transport: with TransportKind.stdio the client would append
  // --stdio to the arguments, and ascvet lsp speaks over stdio anyway. The
  // client sends VS Code's display language as initialize's locale, and
  // ascvet.trace.server is read by the client from its id, "ascvet".
  const serverOptions = { command, args: ['lsp', ...extra.map(String)] };
  const c = new LanguageClient('ascvet', 'ascvet', serverOptions, { documentSelector, outputChannel: output });
  try {
    await c.start();
  } catch (err) {
    // Disposing a client that failed to start throws, but ends its process.
    await c.dispose().catch(() => {});
    startFailed(command, err);
    return;
  }
  client = c;
}

async function stop() {
  const c = client;
  client = undefined;
  if (c !== undefined) {
    await c.dispose(); // shutdown and exit, then ends the process if it lingers
  }
}

// findExecutable returns the absolute path of the executable that
// ascvet.path names, or undefined when there is none. A bare name is
// looked up on PATH, then where go install puts binaries ($GOBIN,
// $GOPATH/bin, ~/go/bin), which VS Code's PATH often lacks when it was not
// started from a shell. A relative path is taken from the first workspace
// folder; ~ is the home directory.
function findExecutable(configured, folder) {
  let name = configured;
  if (name === '~' || name.startsWith('~/') || name.startsWith('~\\')) {
    name = path.join(os.homedir(), name.slice(1));
  }
  if (name.includes('/') || name.includes(path.sep)) {
    if (!path.isAbsolute(name)) {
      if (folder === undefined) {
        return undefined;
      }
      name = path.join(folder, name);
    }
    return executableIn([path.dirname(name)], path.basename(name));
  }
  const dirs = (process.env.PATH || '').split(path.delimiter);
  if (process.env.GOBIN) {
    dirs.push(process.env.GOBIN);
  }
  const gopath = process.env.GOPATH || path.join(os.homedir(), 'go');
  for (const dir of gopath.split(path.delimiter)) {
    if (dir !== '') {
      dirs.push(path.join(dir, 'bin'));
    }
  }
  return executableIn(dirs, name);
}

// executableIn returns the first dir/name that is an executable file; on
// Windows, dir/name with an extension from PATHEXT too.
function executableIn(dirs, name) {
  const windows = process.platform === 'win32';
  const exts = [''];
  if (windows && path.extname(name) === '') {
    exts.push(...(process.env.PATHEXT || '.EXE;.CMD;.BAT;.COM').split(';').filter((e) => e !== ''));
  }
  for (const dir of dirs) {
    if (dir === '') {
      continue;
    }
    for (const ext of exts) {
      const file = path.resolve(dir, name + ext);
      try {
        if (fs.statSync(file).isFile()) {
          if (!windows) {
            fs.accessSync(file, fs.constants.X_OK);
          }
          return file;
        }
      } catch {
        // missing or not executable: try the next one
      }
    }
  }
  return undefined;
}

// notFound tells the user that ascvet.path names no executable, and how to
// fix it. It does not wait for the answer, which would hold up restarts.
function notFound(configured) {
  const where = configured === 'ascvet' ? 'ascvet not found' : `ascvet not found at ${configured}`;
  const message = `${where}: set ascvet.path to the ascvet executable, or install it with \`${INSTALL}\`.`;
  output.appendLine(message);
  vscode.window.showErrorMessage(message, 'Open Settings').then((choice) => {
    if (choice === 'Open Settings') {
      vscode.commands.executeCommand('workbench.action.openSettings', 'ascvet.path');
    }
  });
}

// startFailed tells the user that the executable ran but no language server
// answered: most likely an ascvet from before the lsp command. The server's
// stderr is in the output channel.
function startFailed(command, err) {
  const reason = err instanceof Error ? err.message : String(err);
  const message = `${command} lsp did not start (${reason}); an ascvet without the lsp command is too old: update it with \`${INSTALL}\`.`;
  output.appendLine(message);
  vscode.window.showErrorMessage(message, 'Show Output').then((choice) => {
    if (choice === 'Show Output') {
      output.show();
    }
  });
}

module.exports = { activate, deactivate };
