// Preloaded into peer servers that bind every interface and have no host option: their
// listen(port) binds loopback only, so tests never open a port beyond this machine.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  const [port, host] = args;
  if ((typeof port === 'number' || typeof port === 'string') && typeof host !== 'string') {
    args.splice(1, 0, '127.0.0.1');
  }
  return listen.apply(this, args);
};
