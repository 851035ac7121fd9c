console.log('hookport');
