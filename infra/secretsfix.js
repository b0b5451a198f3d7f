// Custom resource of the ERP platform stack (inline Lambda, Node.js 22).
//   Accion "host":  sets the JSON secret's "host" to Host (the RDS Proxy
//                   endpoint), keeping every other field.
//   Accion "clave": replaces the secret with 32 random bytes in base64, once:
//                   a value that already is such a key is kept, since the
//                   application's data is encrypted with it.
// Delete does nothing (the secrets go with their own resources).
const https = require('https');
const crypto = require('crypto');
const { SecretsManagerClient, GetSecretValueCommand, PutSecretValueCommand } = require('@aws-sdk/client-secrets-manager');

const sm = new SecretsManagerClient({});

function responder(event, status, reason) {
  const body = JSON.stringify({
    Status: status,
    Reason: reason,
    PhysicalResourceId: event.PhysicalResourceId || event.LogicalResourceId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  });
  const url = new URL(event.ResponseURL);
  return new Promise((resolve) => {
    const req = https.request({
      hostname: url.hostname, path: url.pathname + url.search, method: 'PUT',
      headers: { 'content-type': '', 'content-length': Buffer.byteLength(body) },
    }, (res) => { res.resume(); res.on('end', resolve); });
    req.on('error', (e) => { console.error('response', e); resolve(); });
    req.end(body);
  });
}

function esClave(s) {
  try { return Buffer.from(s.trim(), 'base64').length === 32 && /^[A-Za-z0-9+/]{43}=$/.test(s.trim()); } catch (e) { return false; }
}

exports.handler = async (event) => {
  try {
    if (event.RequestType !== 'Delete') {
      const p = event.ResourceProperties;
      const actual = await sm.send(new GetSecretValueCommand({ SecretId: p.SecretId }));
      if (p.Accion === 'host') {
        const doc = JSON.parse(actual.SecretString);
        if (doc.host !== p.Host) {
          doc.host = p.Host;
          await sm.send(new PutSecretValueCommand({ SecretId: p.SecretId, SecretString: JSON.stringify(doc) }));
        }
      } else if (p.Accion === 'clave') {
        if (!esClave(actual.SecretString || '')) {
          const clave = crypto.randomBytes(32).toString('base64');
          await sm.send(new PutSecretValueCommand({ SecretId: p.SecretId, SecretString: clave }));
        }
      } else {
        throw new Error('Accion desconocida: ' + p.Accion);
      }
    }
    await responder(event, 'SUCCESS', 'ok');
  } catch (e) {
    console.error(e);
    await responder(event, 'FAILED', String((e && e.message) || e));
  }
};
