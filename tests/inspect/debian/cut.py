import sys, struct, os, zlib, lzma, gzip, subprocess
def cut(data, tag, out):
    n=0; i=0
    while True:
        i=data.find(b'\x7fELF', i)
        if i<0: break
        try:
            cls=data[i+4]; end='<' if data[i+5]==1 else '>'
            if cls==2:
                et,em=struct.unpack(end+'HH',data[i+16:i+20]); shoff,=struct.unpack(end+'Q',data[i+40:i+48]); shentsize,shnum=struct.unpack(end+'HH',data[i+58:i+62])
            else:
                et,em=struct.unpack(end+'HH',data[i+16:i+20]); shoff,=struct.unpack(end+'I',data[i+32:i+36]); shentsize,shnum=struct.unpack(end+'HH',data[i+46:i+50])
            size=shoff+shentsize*shnum
            blob=data[i:i+size]
            if et==3 and 0<size<200000 and b'linux-' in blob and (b'LINUX_2' in blob or b'LINUX_' in blob):
                p=f"{out}/{tag}-{n}.so"; open(p,'wb').write(blob); print(p, size); n+=1
        except Exception as e: pass
        i+=4
def decomp(data):
    outs=[data]
    for magic,fn in ((b'\x1f\x8b\x08',lambda b: zlib.decompressobj(31).decompress(b)),(b'\xfd7zXZ\x00',lambda b: lzma.LZMADecompressor().decompress(b)),(b'\x28\xb5\x2f\xfd',None)):
        j=data.find(magic)
        while j>=0 and fn:
            try:
                o=fn(data[j:]);
                if len(o)>1000000: outs.append(o); break
            except Exception: pass
            j=data.find(magic,j+1)
    return outs
for path in sys.argv[2:]:
    tag=path.split('/')[-3]
    for k,d in enumerate(decomp(open(path,'rb').read())):
        cut(d, f"{tag}.{k}", sys.argv[1])
