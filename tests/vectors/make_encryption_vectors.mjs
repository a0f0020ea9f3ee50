// Generates tests/vectors/encryption.json: known answers for the ws:encrypt handshake,
// computed with Node's own crypto module (OpenSSL underneath), a second implementation
// independent of the Python code under test. Run once by hand; the test suite only reads
// the JSON it writes and never runs this script:
//
//   node tests/vectors/make_encryption_vectors.mjs > tests/vectors/encryption.json
//
// The recipe is the one docs/encryption.md describes and the npm package mcpews
// 4.0.1 (dist/lib/encrypt.js) implements: ECDH on secp384r1, key = SHA-256(salt || x),
// IV = key[0:16], one AES-256 cipher stream per direction for the whole session
// ("cfb8" = aes-256-cfb8, "cfb" and its alias "cfb128" = aes-256-cfb). Public keys travel
// as base64 DER SubjectPublicKeyInfo: the fixed 23-byte ASN.1 prefix below + the point.
import crypto from 'node:crypto';

const SPKI_PREFIX = Buffer.from('3076301006072a8648ce3d020106052b81040022036200', 'hex');
// Fixed private scalars (any value in [1, n-1] works) so the vectors are reproducible.
const SERVER_PRIVATE = 'a1'.repeat(48);
const CLIENT_PRIVATE = '5c'.repeat(47) + '07';
const SALT = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');

function party(privateHex) {
  const ecdh = crypto.createECDH('secp384r1');
  ecdh.setPrivateKey(Buffer.from(privateHex, 'hex'));
  return { ecdh, spki: Buffer.concat([SPKI_PREFIX, ecdh.getPublicKey()]) };
}

const server = party(SERVER_PRIVATE);
const client = party(CLIENT_PRIVATE);
const sharedServer = server.ecdh.computeSecret(client.ecdh.getPublicKey());
const sharedClient = client.ecdh.computeSecret(server.ecdh.getPublicKey());
if (!sharedServer.equals(sharedClient)) throw new Error('ECDH disagrees with itself');
const key = crypto.createHash('sha256').update(Buffer.concat([SALT, sharedServer])).digest();
const iv = key.subarray(0, 16);

// Frames of awkward lengths (not multiples of 16, one empty, one non-ASCII), in order:
// the stream must carry on across frames, never restart per frame.
const serverToClient = [
  '{"header":{"version":1,"requestId":"6f1c1f0e-8f7e-4c7b-9a39-0c9f4b6f2d11","messagePurpose":"commandRequest","messageType":"commandRequest"},"body":{"version":17039360,"commandLine":"say hi","origin":{"type":"player"}}}',
  '',
  'x',
  '{"header":{"version":1,"requestId":"00000000-0000-0000-0000-000000000002","messagePurpose":"subscribe"},"body":{"eventName":"PlayerMessage"}}',
];
const clientToServer = [
  '{"body":{"statusCode":0,"statusMessage":"hi"},"header":{"messagePurpose":"commandResponse","requestId":"6f1c1f0e-8f7e-4c7b-9a39-0c9f4b6f2d11","version":1}}',
  '{"body":{"message":"héllo § 世界 🙂","receiver":"","sender":"Steve","type":"chat"},"header":{"eventName":"PlayerMessage","messagePurpose":"event","version":17039360}}',
  '0123456789abcdef0',
];

function stream(algorithm, messages) {
  const cipher = crypto.createCipheriv(algorithm, key, iv);
  return messages.map((text) => ({
    plaintext: text,
    ciphertext_hex: cipher.update(Buffer.from(text, 'utf8')).toString('hex'),
  }));
}

const modes = {};
for (const [mode, algorithm] of [['cfb8', 'aes-256-cfb8'], ['cfb', 'aes-256-cfb']]) {
  modes[mode] = {
    algorithm,
    server_to_client: stream(algorithm, serverToClient),
    client_to_server: stream(algorithm, clientToServer),
  };
}

const out = {
  about:
    'ws:encrypt known answers from Node ' + process.version + ' crypto (OpenSSL ' +
    process.versions.openssl + '); made by tests/vectors/make_encryption_vectors.mjs',
  curve: 'secp384r1',
  server_private_hex: SERVER_PRIVATE,
  client_private_hex: CLIENT_PRIVATE,
  server_public_key_b64: server.spki.toString('base64'),
  client_public_key_b64: client.spki.toString('base64'),
  salt_b64: SALT.toString('base64'),
  shared_secret_x_hex: sharedServer.toString('hex'),
  key_hex: key.toString('hex'),
  iv_hex: iv.toString('hex'),
  modes,
};
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
